export * from './messages';
export * from './records';
export * from './validate';
export * from './snapshot';
export * from './sources';
