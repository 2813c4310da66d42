'use strict';
/**
 * Loaded into a cluster process with NODE_OPTIONS=--require: TXT lookups answer from the JSON file
 * FAKE_DNS_FILE ({"name": [["chunk", …], …]}), read at every lookup so the test can change it
 * while the process runs. A name the file does not hold has no records. Only TXT is faked: the
 * process's other lookups (its database, its Redis) go on as usual.
 */
/* global require, process */
/* eslint-disable @typescript-eslint/no-require-imports -- a preload loaded by plain node, before any module system of ours */
const { readFileSync } = require('node:fs');
const { Resolver } = require('node:dns/promises');

const file = process.env.FAKE_DNS_FILE;
if (file) {
  Resolver.prototype.resolveTxt = async function resolveTxt(name) {
    let records = {};
    try {
      records = JSON.parse(readFileSync(file, 'utf8'));
    } catch {
      // No file yet: no records anywhere.
    }
    return records[name] ?? [];
  };
}
