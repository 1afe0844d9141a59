/**
 * Commit log configuration: {@link dev.commitlog.config.CommitLogConfig}, read from YAML
 * ({@code conf/commitlog.yaml} documents every key) or built in code with its builder; the sync
 * modes ({@link dev.commitlog.config.SyncMode}), the replay and commit-failure policies. Every
 * failure is a {@link dev.commitlog.config.ConfigException} naming the YAML key, the value given and
 * what is allowed.
 *
 * <p>Data flow: {@code YamlConfigLoader} reads the YAML node tree and converts each scalar's text
 * ({@code Units} for durations and sizes, {@code FileMode} for the octal mode, {@code YamlNames} for
 * enum names) into a {@code CommitLogConfig.Builder}; {@code Builder.build()} applies the defaults and
 * every rule ({@code ConfigRules}), so YAML and code share one validation.
 */
package dev.commitlog.config;
