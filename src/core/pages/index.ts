export * from './answer-body.js';
export * from './pages.js';
export * from './pages-view.js';
export * from './solver-asset.js';
export * from './preview-page.js';
