import { Injectable } from '@nestjs/common';
import type { EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock';
import type { ProjectSettings } from './entities/project.entity';
import { mergeSettings, readStoredSettings } from './projects.queries';

/**
 * The project's settings document, for the modules that keep a switch in it (notifications,
 * changelog). Read from the database in the caller's transaction, never from a cached ProjectRef
 * (the key cache keeps a project for seconds); written by a top-level merge, so each module
 * changes its own keys and keeps the others'.
 */
@Injectable()
export class ProjectSettingsService {
  constructor(private readonly clock: Clock) {}

  /** The settings as stored: a switch never set is absent. */
  read(em: EntityManager, projectId: string): Promise<Partial<ProjectSettings>> {
    return readStoredSettings(em, projectId);
  }

  /** Sets the keys of `patch` and stamps the project's `updated_at`; the other keys stay. */
  merge(em: EntityManager, projectId: string, patch: Partial<ProjectSettings>): Promise<void> {
    return mergeSettings(em, projectId, patch, this.clock.now());
  }
}
