/** Report formats: pure functions from findings (or the mesh graph) to text. */
export * from './summary';
export * from './text';
export * from './json';
export * from './sarif';
export * from './rule-descriptors';
export * from './mermaid';
export * from './help-uri';
export * from './junit';
export * from './github';
