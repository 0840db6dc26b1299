export * from './binding';
export * from './identity';
export * from './static-identity';
export * from './cert-manager-identity';
export * from './rotation';
