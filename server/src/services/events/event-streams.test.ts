import { describe, expect, it } from 'vitest';
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
});
