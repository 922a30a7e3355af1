// Every ABI module the host answers, by the import module name a guest uses. Anything else a guest
// imports answers "unsupported" (worker/linking.ts).
import { acl } from './acl.js';
import { asyncIo } from './async-io.js';
import { backend } from './backend.js';
import { computeRuntime } from './compute-runtime.js';
import { configStore } from './config-store.js';
import { deviceDetection } from './device-detection.js';
import { erl } from './erl.js';
import { geo } from './geo.js';
import { httpBody } from './http-body.js';
import { httpDownstream } from './http-downstream.js';
import { httpReq } from './http-req.js';
import { httpResp } from './http-resp.js';
import { kvStore } from './kv-store.js';
import { log } from './log.js';
import { secretStore } from './secret-store.js';
import { OK } from '../guest/status.js';
import type { AbiModule } from './types.js';

export const ABI_MODULES: Record<string, AbiModule> = {
  fastly_abi: { init: () => OK },
  fastly_http_downstream: httpDownstream,
  fastly_http_req: httpReq,
  fastly_http_resp: httpResp,
  fastly_http_body: httpBody,
  fastly_log: log,
  fastly_dictionary: configStore,
  fastly_config_store: configStore,
  fastly_secret_store: secretStore,
  fastly_kv_store: kvStore,
  fastly_geo: geo,
  fastly_device_detection: deviceDetection,
  fastly_acl: acl,
  fastly_erl: erl,
  fastly_compute_runtime: computeRuntime,
  fastly_async_io: asyncIo,
  fastly_backend: backend,
};
export * from './types.js';
export * from './wasi.js';
