// HTTPS certificates for the webpack dev server (https://localhost:3000). Office loads add-ins only over
// https, and the browser or Office webview must accept the certificate.
//
// In order of preference:
//   1. Windows / macOS: office-addin-dev-certs' getHttpsServerOptions(), which generates a development CA and
//      trusts it in the OS store (it may ask for a password once).
//   2. A usable pair already in ~/.office-addin-dev-certs (localhost.crt / localhost.key, and ca.crt).
//   3. A new pair there from office-addin-dev-certs' generator (pure JS, no trust step). On Linux its
//      install step needs sudo and getHttpsServerOptions() rejects, so we only generate; trust ca.crt in the
//      browser yourself, or accept the warning once.
//   4. A usable self-signed pair in .certs/ (this repository, git-ignored), else a new one made once with
//      openssl.
// "Usable": the key matches, the certificate covers localhost and is valid for at least another day.
'use strict';

const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');

const root = path.resolve(__dirname, '..');
const OFFICE_DIR = path.join(os.homedir(), '.office-addin-dev-certs');
const LOCAL_DIR = path.join(root, '.certs');
const DAY_MS = 24 * 60 * 60 * 1000;

function pairIn(dir) {
  return {
    dir,
    certPath: path.join(dir, 'localhost.crt'),
    keyPath: path.join(dir, 'localhost.key'),
    caPath: path.join(dir, 'ca.crt'),
  };
}

/** Why the pair cannot serve https://localhost now, or null when it can. */
function problemWith(certPem, keyPem, now = Date.now()) {
  let cert;
  try {
    cert = new crypto.X509Certificate(certPem);
  } catch (e) {
    return `unreadable certificate (${e.message})`;
  }
  if (Date.parse(cert.validTo) < now + DAY_MS) return `expires ${cert.validTo}`;
  if (Date.parse(cert.validFrom) > now) return `not valid before ${cert.validFrom}`;
  if (!cert.checkHost('localhost')) return 'does not cover localhost';
  try {
    if (!cert.checkPrivateKey(crypto.createPrivateKey(keyPem))) return 'the key does not match the certificate';
  } catch (e) {
    return `unreadable key (${e.message})`;
  }
  return null;
}

/** The pair in `dir` as https options, or null (with the reason logged) when missing or not usable. */
function readPair(dir, source, log) {
  const p = pairIn(dir);
  if (!fs.existsSync(p.certPath) || !fs.existsSync(p.keyPath)) return null;
  const cert = fs.readFileSync(p.certPath);
  const key = fs.readFileSync(p.keyPath);
  const problem = problemWith(cert, key);
  if (problem) {
    log(`dev-certs: not using ${p.certPath}: ${problem}.`);
    return null;
  }
  const ca = fs.existsSync(p.caPath) ? fs.readFileSync(p.caPath) : undefined;
  return { cert, key, ca, source, certPath: p.certPath, caPath: ca ? p.caPath : p.certPath };
}

function makeWithOpenssl(dir, log) {
  const p = pairIn(dir);
  fs.mkdirSync(dir, { recursive: true });
  execFileSync(
    'openssl',
    [
      'req', '-x509', '-newkey', 'rsa:2048', '-nodes', '-sha256', '-days', '365',
      '-subj', '/CN=localhost',
      '-addext', 'subjectAltName=DNS:localhost,IP:127.0.0.1',
      '-keyout', p.keyPath, '-out', p.certPath,
    ],
    { stdio: 'pipe' },
  );
  fs.chmodSync(p.keyPath, 0o600);
  log(`dev-certs: made a self-signed certificate for localhost with openssl in ${dir}.`);
}

/**
 * https server options ({cert, key, ca?}) plus where they came from: `source`, `certPath`, and `caPath`
 * (the file to trust in a browser).
 */
async function getHttpsOptions({ log = (m) => console.log(m), platform = process.platform } = {}) {
  let devCerts = null;
  try {
    devCerts = require('office-addin-dev-certs');
  } catch {
    log('dev-certs: office-addin-dev-certs is not installed; using openssl.');
  }

  if (devCerts && (platform === 'win32' || platform === 'darwin')) {
    try {
      const opts = await devCerts.getHttpsServerOptions();
      const p = pairIn(OFFICE_DIR);
      return { ...opts, source: 'office-addin-dev-certs (trusted)', certPath: p.certPath, caPath: p.caPath };
    } catch (e) {
      log(`dev-certs: office-addin-dev-certs could not install its certificate: ${String(e.message).split('\n')[0]}`);
    }
  }

  const existing = readPair(OFFICE_DIR, 'office-addin-dev-certs', log);
  if (existing) return existing;

  if (devCerts && !fs.existsSync(pairIn(OFFICE_DIR).caPath)) {
    try {
      await devCerts.generateCertificates();
      fs.chmodSync(pairIn(OFFICE_DIR).keyPath, 0o600);
      const made = readPair(OFFICE_DIR, 'office-addin-dev-certs (generated, not trusted)', log);
      if (made) return made;
    } catch (e) {
      log(`dev-certs: office-addin-dev-certs could not generate certificates: ${String(e.message).split('\n')[0]}`);
    }
  }

  const local = readPair(LOCAL_DIR, 'self-signed (.certs)', log);
  if (local) return local;
  makeWithOpenssl(LOCAL_DIR, log);
  const made = readPair(LOCAL_DIR, 'self-signed (.certs, openssl)', log);
  if (!made) throw new Error(`dev-certs: openssl did not produce a usable certificate in ${LOCAL_DIR}.`);
  return made;
}

/** Without generating anything: the certificate the dev server will use, or null. For messages. */
function findUsableCertificate() {
  const quiet = () => {};
  return readPair(OFFICE_DIR, 'office-addin-dev-certs', quiet) || readPair(LOCAL_DIR, 'self-signed (.certs)', quiet);
}

module.exports = { getHttpsOptions, findUsableCertificate, problemWith, OFFICE_DIR, LOCAL_DIR };

if (require.main === module) {
  // `node scripts/dev-certs.js`: make sure a usable certificate exists and say where it is.
  getHttpsOptions()
    .then((o) => console.log(`dev-certs: ${o.source}\n  certificate: ${o.certPath}\n  trust this in your browser: ${o.caPath}`))
    .catch((e) => {
      console.error(e.message);
      process.exit(1);
    });
}
