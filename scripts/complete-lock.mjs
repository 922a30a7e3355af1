#!/usr/bin/env node
// Completes package-lock.json with the other platforms' optional binary packages.
//
// Why: the registry mirror on our build machines serves only some platforms' binaries, so npm
// leaves the others out of the lock, and `npm ci` then refuses the lock as out of sync with
// package.json. A lock written against the full registry holds an entry for every optional
// platform package; `npm ci` skips the ones whose os/cpu/libc do not match this machine. This script
// adds exactly those entries (version from the parent's pin, platform from the package name).
// Run it after any `npm install` on such a machine: `node scripts/complete-lock.mjs`.
import { readFileSync, writeFileSync } from 'node:fs';

const lockPath = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(lockPath, 'utf8'));
const packages = lock.packages;

const OS = ['darwin', 'linux', 'win32', 'freebsd', 'android', 'openharmony', 'openbsd', 'netbsd', 'sunos', 'aix'];
const CPU = {
  arm64: 'arm64',
  x64: 'x64',
  x32: 'ia32',
  ia32: 'ia32',
  arm: 'arm',
  ppc64: 'ppc64',
  s390x: 's390x',
  riscv64: 'riscv64',
  loong64: 'loong64',
  wasm32: 'wasm32',
};

function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((p) => OS.includes(p));
  const cpuPart = parts.find((p) => p in CPU);
  const entry = {};
  if (os) entry.os = [os];
  if (cpuPart && cpuPart !== 'wasm32') entry.cpu = [CPU[cpuPart]];
  if (parts.includes('musl')) entry.libc = ['musl'];
  else if (os === 'linux' && parts.includes('gnu')) entry.libc = ['glibc'];
  return entry;
}

let added = 0;
for (const [path, pkg] of Object.entries(packages)) {
  for (const [dep, spec] of Object.entries(pkg.optionalDependencies ?? {})) {
    // Resolution as npm does it: next to the parent first, then up the tree.
    const base = path === '' ? '' : `${path}/`;
    const candidates = [];
    for (let p = base; ; ) {
      candidates.push(`${p}node_modules/${dep}`);
      const i = p.lastIndexOf('node_modules/');
      if (i < 0) break;
      p = p.slice(0, i);
    }
    const version = String(spec).replace(/^[=^~]/, '');
    if (!/^\d+\.\d+\.\d+$/.test(version)) continue; // only a pinned version can be named here
    const nearest = candidates.find((c) => packages[c]);
    if (nearest && packages[nearest].version === version) continue;
    // The hoisted slot when it is free; otherwise beside the parent, where npm would nest it.
    const target = nearest ? `${base}node_modules/${dep}` : `node_modules/${dep}`;
    if (packages[target]) continue;
    packages[target] = { version, ...(pkg.dev ? { dev: true } : {}), optional: true, ...platformOf(dep) };
    added += 1;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a < b ? -1 : a > b ? 1 : 0)),
);
writeFileSync(lockPath, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`complete-lock: added ${added} optional platform entries`);
