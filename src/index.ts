/// <reference types="@fastly/js-compute" />
// The Fastly Compute entry point: wire the runtime into the pure room.
import { handle } from './core/handler.js';
import { fastlyDeps } from './fastly/deps.js';

addEventListener('fetch', (event) => event.respondWith(handle(event.request, fastlyDeps(event))));
