// A guest worker thread: runs one guest instance at a time (guest/runner.ts), each handed its
// first request by the main thread in a message.
import { parentPort, workerData } from 'node:worker_threads';
import { Runner } from './guest/runner.js';
import type { DownstreamRequest, WorkerInit } from './protocol.js';

const runner = new Runner(workerData as WorkerInit);

parentPort!.on('message', (msg: DownstreamRequest) => runner.run(msg));
