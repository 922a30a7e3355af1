// A throwaway self-signed certificate: the host's TLS tests (an HTTPS origin, a backend that checks its
// name) and the rehearsal's HTTPS log receiver (rehearse/).
import { spawn } from 'node:child_process';
import { isIP } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A throwaway self-signed certificate for `hostname` (a name, or an IP address) (the test CA is the certificate itself), made
 * with the openssl command line since Node cannot issue certificates.
 */
export async function selfSignedCertificate(hostname: string): Promise<{ key: string; cert: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), 'wr-cert-'));
  try {
    await new Promise<void>((resolve, reject) => {
      const args = [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '2',
      ];
      args.push(
        '-subj',
        `/CN=${hostname}`,
        '-addext',
        `subjectAltName=${isIP(hostname) === 0 ? 'DNS' : 'IP'}:${hostname}`,
      );
      args.push('-keyout', path.join(dir, 'key.pem'), '-out', path.join(dir, 'cert.pem'));
      const child = spawn('openssl', args, { stdio: ['ignore', 'ignore', 'pipe'] });
      let stderr = '';
      child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString('utf8')));
      child.on('error', (error) => reject(new Error(`openssl is needed for TLS tests: ${error.message}`)));
      child.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`openssl failed: ${stderr}`))));
    });
    return {
      key: await readFile(path.join(dir, 'key.pem'), 'utf8'),
      cert: await readFile(path.join(dir, 'cert.pem'), 'utf8'),
    };
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}
