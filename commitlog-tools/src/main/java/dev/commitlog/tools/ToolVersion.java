package dev.commitlog.tools;

import picocli.CommandLine.IVersionProvider;

/** {@code --version}: the version in the jar's manifest, when run from the jar. */
final class ToolVersion implements IVersionProvider {
    @Override
    public String[] getVersion() {
        String version = ToolsMain.class.getPackage().getImplementationVersion();
        return new String[] {"commitlog-tools " + (version == null ? "(development build)" : version)};
    }
}
