// Where the controller's decision lines come from, as --source names it: stdin (the room's other lines
// echoed), a followed file, fastly log-tail (each start an API call of the budget's), or an HTTPS log
// endpoint (control/sources/).
import { UsageError } from '../../lib/cli.js';
import { httpsSource, parseLogLine, fileSource, logTailSource, stdinSource, type Source } from '../sources/index.js';
import type { ApiBudget, openJournal } from '../store/index.js';
import type { Log, Values } from './options.js';

async function startHttps(
  portText: string,
  values: {
    'tls-cert'?: string;
    'tls-key'?: string;
    'https-host'?: string;
    'accept-service'?: string[];
    'https-secret'?: string;
    service?: string;
  },
  log: (message: string) => void,
  onLine: (text: string) => void,
): Promise<Source> {
  const port = Number(portText);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new UsageError(`--source https:PORT needs a port number, not "${portText}"`);
  if ((values['tls-cert'] === undefined) !== (values['tls-key'] === undefined))
    throw new UsageError('--tls-cert and --tls-key go together');
  let secret: { name: string; value: string } | null = null;
  if (values['https-secret'] !== undefined) {
    const at = values['https-secret'].indexOf('=');
    if (at < 1 || at === values['https-secret'].length - 1)
      throw new UsageError(`--https-secret must be NAME=VALUE, not "${values['https-secret']}"`);
    secret = { name: values['https-secret'].slice(0, at), value: values['https-secret'].slice(at + 1) };
  }
  const serviceIds = values['accept-service'] ?? (values.service !== undefined ? [values.service] : []);
  const source = await httpsSource(
    {
      port,
      host: values['https-host'],
      tlsCertFile: values['tls-cert'],
      tlsKeyFile: values['tls-key'],
      serviceIds,
      secret,
      log,
    },
    onLine,
  );
  if (values['tls-cert'] === undefined)
    log(`${source.name} serves plain HTTP: Fastly posts only to https:// URLs, so put a TLS proxy in front`);
  if (serviceIds.length === 0)
    log('the logging challenge accepts any service (*): name yours with --accept-service or --service');
  return source;
}

/** Passes decision lines to `onLine` and every other line (the room's banner, its errors) to `other`. */
export function echoOthers(onLine: (text: string) => void, other: (text: string) => void): (text: string) => void {
  return (text) => {
    if (parseLogLine(text).kind === 'foreign') other(text);
    onLine(text);
  };
}

export async function openSource(
  spec: string,
  values: Values,
  onLine: (text: string) => void,
  budget: ApiBudget,
  journal: ReturnType<typeof openJournal> | null,
  resuming: boolean,
  log: Log,
): Promise<Source> {
  // The room's banner and errors come down the same pipe as its decision lines: the operator still sees them.
  if (spec === 'stdin')
    return stdinSource(values['no-echo'] ? onLine : echoOthers(onLine, (text) => process.stdout.write(`${text}\n`)));
  // Resuming: the file's lines written while the controller was down are read too (counted ones skipped).
  if (spec.startsWith('file:')) return fileSource(spec.slice(5), onLine, 250, resuming);
  // Each start of `fastly log-tail` is an API call: held while the budget has none to spare, counted as
  // it goes (its outcome settled on the budget's pending call), journalled once its outcome is known.
  if (spec.startsWith('log-tail:'))
    return logTailSource(spec.slice(9), onLine, {
      take: (now) => budget.take(now, 'log-tail'),
      report: (call) => journal?.append(call, Date.now()),
    });
  if (spec.startsWith('https:')) return startHttps(spec.slice(6), values, log, onLine);
  throw new UsageError(`--source must be stdin, file:PATH, log-tail:SERVICE or https:PORT, not "${spec}"`);
}
