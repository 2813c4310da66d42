import { isLoopback } from './dev-mail.controller';

describe('isLoopback', () => {
  it('accepts the loopback addresses only', () => {
    for (const address of ['127.0.0.1', '127.1.2.3', '::1', '::ffff:127.0.0.1']) expect(isLoopback(address)).toBe(true);
    for (const address of ['10.0.0.5', '::ffff:192.168.1.2', '2001:db8::1', '', undefined]) expect(isLoopback(address)).toBe(false);
  });
});
