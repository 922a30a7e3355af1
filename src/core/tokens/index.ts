export * from './invite.js';
export * from './keys.js';
export * from './proof.js';
export * from './token.js';
export { decodeBase64url, encodeBase64url } from './jws.js';
export * from './preview.js';
