import { hourWindow } from './bell-reads-limit.service';

describe('hourWindow', () => {
  it('names the UTC clock hour and the whole seconds left in it', () => {
    const start = hourWindow(new Date('2026-11-20T10:00:00.000Z'));
    expect(start.secondsLeft).toBe(3600);
    const late = hourWindow(new Date('2026-11-20T10:59:00.000Z'));
    expect(late).toEqual({ hour: start.hour, secondsLeft: 60 });
    expect(hourWindow(new Date('2026-11-20T10:59:59.500Z')).secondsLeft).toBe(1);
    expect(hourWindow(new Date('2026-11-20T11:00:00.000Z')).hour).toBe(start.hour + 1);
  });
});
