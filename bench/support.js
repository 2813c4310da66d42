/** What the benchmark scripts share: the admin database connection, sleeping, and a process's CPU time. */
const { readFileSync } = require('node:fs');
const { Client } = require('pg');

const ADMIN_URL = process.env.DATABASE_URL ?? 'postgres://postgres@127.0.0.1:5432/postgres';
const CLOCK_TICKS_PER_SECOND = 100;

const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

/** The server of DATABASE_URL with another database name. */
function databaseUrl(name) {
  const url = new URL(ADMIN_URL);
  url.pathname = `/${name}`;
  return url.toString();
}

/** One statement on the admin database (CREATE DATABASE, DROP DATABASE). */
async function admin(sql) {
  const client = new Client({ connectionString: ADMIN_URL });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}

/** User + system CPU seconds of a process so far. */
function cpuSeconds(pid) {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS_PER_SECOND;
}

module.exports = { ADMIN_URL, sleep, databaseUrl, admin, cpuSeconds };
