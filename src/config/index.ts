/** The repository config file (.cdk8s-linkerd.yaml), shared by the CLI, MeshChecks and the cdk8s-cli plugin. */
export * from './config-file';
export * from './config-schema';
export * from './globs';
export * from './rule-levels';
