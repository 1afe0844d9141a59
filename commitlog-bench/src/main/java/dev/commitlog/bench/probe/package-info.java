/**
 * Small measurements behind single design choices, each a {@code main} run with {@code java -cp}
 * (so that another build's {@code commitlog-core} jar can come first on the class path and be the
 * one measured). docs/benchmarks.md gives the commands and the figures.
 */
package dev.commitlog.bench.probe;
