/** Policy evaluation over the mesh index: who may reach which port, and how routes split traffic. */
export * from './authorization';
export * from './evaluate';
export * from './route-shares';
export * from './request-samples';
export * from './reach';
