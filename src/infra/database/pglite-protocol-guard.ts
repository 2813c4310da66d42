/** The part of PGlite the socket server's queue uses. */
interface GuardablePGlite {
  isInTransaction(): boolean;
  execProtocolRawStream(message: Uint8Array, options: never): Promise<unknown>;
  exec(...args: never[]): Promise<unknown>;
}

// Extended-query protocol message types (Parse, Bind, Describe, Execute, Close, Flush) and Sync.
const EXTENDED_PROTOCOL_MESSAGES = new Set([0x50, 0x42, 0x44, 0x45, 0x43, 0x48]);
const SYNC = 0x53;

/**
 * pglite-socket serves every connection from one PostgreSQL session and keeps a connection's
 * messages together only inside an explicit transaction. An unnamed prepared statement lives from
 * Parse until Sync, so without this guard two pooled connections interleave their
 * Parse/Bind/Execute messages and queries fail at random ("bind message supplies 1 parameters, but
 * prepared statement requires 2"). The guard reports "in transaction" from the first
 * extended-protocol message to the next Sync, which makes the socket server's queue keep serving
 * the same connection until the statement is complete. The "embedded PostgreSQL" suite in
 * `test/infra/database.e2e-spec.ts` keeps this honest under load.
 */
export function guardExtendedProtocol<T extends GuardablePGlite>(db: T): T {
  let insideExtendedQuery = false;
  return new Proxy(db, {
    get(target, property) {
      if (property === 'isInTransaction') {
        return () => target.isInTransaction() || insideExtendedQuery;
      }
      if (property === 'execProtocolRawStream') {
        return async (message: Uint8Array, options: never) => {
          const type = message[0];
          if (EXTENDED_PROTOCOL_MESSAGES.has(type)) insideExtendedQuery = true;
          try {
            return await target.execProtocolRawStream(message, options);
          } finally {
            if (type === SYNC) insideExtendedQuery = false;
          }
        };
      }
      if (property === 'exec') {
        // The socket server calls exec('ROLLBACK') when a connection drops mid-statement.
        return async (...args: never[]) => {
          insideExtendedQuery = false;
          return target.exec(...args);
        };
      }
      const value: unknown = Reflect.get(target, property, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
}
