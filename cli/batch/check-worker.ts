/** Worker-thread entry of `checkPaths` (bundled as dist/check-worker.js). */
import { workerData } from 'worker_threads';
import { workerMain, type WorkerStart } from './parallel-worker';

workerMain(workerData as WorkerStart);
