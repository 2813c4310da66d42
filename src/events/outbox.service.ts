import { Injectable, OnModuleInit } from '@nestjs/common';
import { EntityManager } from 'typeorm';
import { Clock } from '../common/clock/clock';
import { newId } from '../common/ids/ids';
import { ErasureRegistry } from '../infra/erasure/erasure-registry.service';
import type { ProjectRef } from '../projects/project-ref';
import { EVENT_CATALOG, EventType, fieldMismatch } from './event-catalog';
import type { EventEntity } from './entities/event.entity';
import { findEvent, findEvents, insertEvent, nullPersonInEvents } from './events.queries';

export interface RecordedEvent {
  id: string;
  projectId: string;
  type: EventType;
  data: Record<string, unknown>;
  createdAt: Date;
}

/**
 * Called inside the same transaction for each recorded event, e.g. to plan webhook deliveries.
 * `project` is the caller's copy of the event's project when it passed one (a request's, from its
 * API key), else null: what that copy says is as of when it was read.
 */
type OutboxListener = (em: EntityManager, event: RecordedEvent, project: ProjectRef | null) => Promise<void>;

/**
 * Writes events in the transaction of the change they describe (the outbox pattern). Modules that
 * act on events (webhook deliveries) register a listener that adds their rows in that same
 * transaction; nothing leaves the process before commit.
 */
@Injectable()
export class OutboxService implements OnModuleInit {
  private readonly listeners: OutboxListener[] = [];

  constructor(
    private readonly clock: Clock,
    private readonly erasure: ErasureRegistry,
  ) {}

  /** Event payloads carry emails and user ids: erasing a person nulls them there. */
  onModuleInit(): void {
    this.erasure.contribute('events', nullPersonInEvents);
  }

  addListener(listener: OutboxListener): void {
    this.listeners.push(listener);
  }

  /**
   * Records an event of `project`: its id, or, from a request, the request's project, whose copy
   * can spare listeners work (a project known to have no webhook endpoints plans no deliveries).
   */
  async record(em: EntityManager, project: ProjectRef | string, type: EventType, data: Record<string, unknown>): Promise<RecordedEvent> {
    const { extra, missing } = fieldMismatch(type, data);
    if (extra.length > 0 || missing.length > 0) {
      throw new Error(
        `Event ${type} data does not match the catalog (extra: ${extra.join(', ') || '-'}; missing: ${missing.join(', ') || '-'})`,
      );
    }
    const known = typeof project === 'string' ? null : project;
    const projectId = typeof project === 'string' ? project : project.id;
    const event: RecordedEvent = { id: newId('evt'), projectId, type, data, createdAt: this.clock.now() };
    await insertEvent(em, event);
    for (const listener of this.listeners) await listener(em, event, known);
    return event;
  }

  /** The project's event by id, read with `em`; null when there is none (erased with its project). */
  findEvent(em: EntityManager, projectId: string, eventId: string): Promise<EventEntity | null> {
    return findEvent(em, projectId, eventId);
  }

  /** The project's events among `eventIds`, in one query; `eventIds` must not be empty. */
  findEvents(em: EntityManager, projectId: string, eventIds: readonly string[]): Promise<EventEntity[]> {
    return findEvents(em, projectId, eventIds);
  }

  /** The envelope a receiver gets (spec: Events → Envelope). */
  static envelope(event: RecordedEvent): {
    id: string;
    type: EventType;
    created_at: string;
    project_id: string;
    data: Record<string, unknown>;
  } {
    return { id: event.id, type: event.type, created_at: event.createdAt.toISOString(), project_id: event.projectId, data: event.data };
  }

  static describe(type: EventType): string {
    return EVENT_CATALOG[type].description;
  }
}
