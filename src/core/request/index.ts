export * from './cookies.js';
export * from './identity.js';
export * from './request-facts.js';
