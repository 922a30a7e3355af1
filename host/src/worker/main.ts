// A guest worker thread's entry (bundled as host/dist/worker.js): runs one guest instance at a time
// (runner.ts), each handed its first request by the main thread in a message.
import { parentPort, workerData } from 'node:worker_threads';
import { Runner } from './runner.js';
import type { DownstreamRequest, WorkerInit } from '../protocol.js';

const runner = new Runner(workerData as WorkerInit);

parentPort!.on('message', (msg: DownstreamRequest) => runner.run(msg));
