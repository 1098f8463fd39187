import { describe, expect, it } from 'vitest';
import type { BusEvent } from '../../coordination/event-bus.ts';
import { MemoryEventBus } from '../../coordination/memory-event-bus.ts';
import type { EventStreamsDeps } from './event-streams.ts';
import { EventStreams } from './event-streams.ts';
import type { SessionsService, SessionUser } from '../sessions.service.ts';

/** A bus on which another request publishes for the user while a new stream reads its start. */
class BusyWhileOpening extends MemoryEventBus {
  private published = false;
  override async latestId(): Promise<number> {
    const id = await super.latestId();
    if (!this.published) {
      this.published = true;
      await this.publish(7, 'shared', {});
    }
    return id;
  }
}

/** A bus that hears of its events late, as the database-backed one may: after a replay read them. */
class LateBus extends MemoryEventBus {
  private listener: ((event: BusEvent) => void) | undefined;
  private pending: BusEvent[] = [];
  override subscribe(listener: (event: BusEvent) => void): () => void {
    this.listener = listener;
    return () => (this.listener = undefined);
  }
  override async publish(userId: number, type: string, data: unknown): Promise<number> {
    const id = await super.publish(userId, type, data);
    this.pending.push({ id, userId, type, data });
    return id;
  }
  /** Delivers what was published since the last call, as its notifications arrive. */
  arrive(): void {
    for (const event of this.pending.splice(0)) this.listener?.(event);
  }
}

function streams(bus: MemoryEventBus): EventStreams {
  // open() reads none of these parts while no folder changed recently.
  const deps = {
    search: { onPathChanged: () => () => undefined },
    log: { warn: () => undefined },
  } as unknown as EventStreamsDeps;
  return new EventStreams(deps, bus, {} as SessionsService);
}

describe('EventStreams.open', () => {
  it('sends an event published while a new stream opens, instead of dropping it', async () => {
    const bus = new BusyWhileOpening();
    const events = streams(bus);
    await events.start();
    const written: string[] = [];
    const close = await events.open({ id: 7 } as SessionUser, 'token', null, {
      write: (chunk) => written.push(chunk),
      end: () => undefined,
    });
    const text = written.join('');
    expect(text).toContain('event: ready');
    expect(text).toContain('event: shared');
    expect(text.indexOf('event: ready')).toBeLessThan(text.indexOf('event: shared'));
    close();
    await events.stop();
  });

  it("never sends another user's event to the stream", async () => {
    const bus = new BusyWhileOpening();
    const events = streams(bus);
    await events.start();
    const written: string[] = [];
    const close = await events.open({ id: 8 } as SessionUser, 'token', null, {
      write: (chunk) => written.push(chunk),
      end: () => undefined,
    });
    expect(written.join('')).not.toContain('event: shared');
    close();
    await events.stop();
  });

  it('sends an event once when the bus delivers it after the replay that sent it', async () => {
    const bus = new LateBus();
    const events = streams(bus);
    await events.start();
    const before = await bus.publish(9, 'job', { step: 'seen' });
    await bus.publish(9, 'job', { step: 'a' });
    await bus.publish(9, 'job', { step: 'b' });
    const written: string[] = [];
    const close = await events.open({ id: 9 } as SessionUser, 'token', before, {
      write: (chunk) => written.push(chunk),
      end: () => undefined,
    });
    // The notifications of all three arrive now, after the replay sent 'a' and 'b'.
    bus.arrive();
    await bus.publish(9, 'job', { step: 'c' });
    bus.arrive();
    const steps = [...written.join('').matchAll(/"step":"(\w+)"/g)].map((match) => match[1]);
    expect(steps).toEqual(['a', 'b', 'c']);
    close();
    await events.stop();
  });
});
