import { Inject, Injectable } from '@nestjs/common';
import { BoundedMap } from '../common/cache/bounded-map';
import { APP_CONFIG, type AppConfig } from '../config/app-config';
import { ChangeNotifications } from '../infra/database/change-notifications.service';
import { Database } from '../infra/database/database.service';
import { PROJECT_CHANGE } from '../projects/projects.service';
import { projectOfVerifiedHost } from './custom-domains.queries';
import { hostnameProblem, normalizeHostname } from './hostnames';

interface Entry {
  value: { projectId: string; slug: string } | null;
  expiresAt: number;
}

// Hostnames that are not ours are remembered as such too, sparing the database. A hostname's
// verification, removal or release (HOST_CHANGE), and its project's slug change or deletion
// (PROJECT_CHANGE), drop its entry at once in every process; the TTL bounds what a lost
// notification leaves behind.
const TTL_MS = 30_000;
/** The change kind a hostname's claim is announced under (id: the hostname). */
const HOST_CHANGE = 'custom-domain';
// Any client can send any Host: bounded, so random names cannot grow the map without end.
const MAX_ENTRIES = 10_000;

/** Verified hostname → the project it serves, cached briefly in this process. */
@Injectable()
export class CustomDomainHosts {
  private readonly entries = new BoundedMap<string, Entry>(MAX_ENTRIES);
  private readonly ownHosts: string[];

  constructor(
    @Inject(APP_CONFIG) config: AppConfig,
    private readonly db: Database,
    private readonly changes: ChangeNotifications,
  ) {
    const target = config.customDomains?.cnameTarget;
    this.ownHosts = [new URL(config.publicBaseUrl).hostname, new URL(config.cdnUrl).hostname, ...(target ? [target] : [])];
    changes.subscribe({
      onChange: {
        [PROJECT_CHANGE]: (projectId) => this.forgetProject(projectId),
        [HOST_CHANGE]: (hostname) => this.forget(hostname),
      },
      onGap: () => this.entries.clear(),
    });
  }

  /**
   * The Host's name, normalized, when it could be a custom domain; null for our own hosts, IP
   * addresses, single labels (localhost) and anything else no project could have added, which
   * are never looked up.
   */
  candidate(host: string | undefined): string | null {
    const hostname = normalizeHostname(host ?? '');
    return hostnameProblem(hostname, this.ownHosts) === null ? hostname : null;
  }

  async lookup(hostname: string): Promise<{ projectId: string; slug: string } | null> {
    const now = Date.now();
    const cached = this.entries.get(hostname);
    if (cached && cached.expiresAt > now) return cached.value;
    this.changes.start();
    const value = await projectOfVerifiedHost(this.db.manager, hostname);
    this.entries.set(hostname, { value, expiresAt: now + TTL_MS });
    return value;
  }

  /** Drops what this process remembers of a hostname. */
  forget(hostname: string): void {
    this.entries.delete(hostname);
  }

  /**
   * Tells every API process, this one included, that a hostname was verified, removed or released,
   * once that change is committed: each drops its copy, so the next request there sees the change.
   */
  async changed(hostname: string): Promise<void> {
    this.forget(hostname);
    await this.db.transaction((em) => this.changes.announce(em, HOST_CHANGE, hostname));
  }

  /** Drops the hostnames of a project whose slug may have changed (or that is gone). */
  private forgetProject(projectId: string): void {
    for (const [hostname, entry] of this.entries) if (entry.value?.projectId === projectId) this.entries.delete(hostname);
  }
}
