import { billingUpdateOf, planOfPrice } from './billing-events';

const PRICES = { indie: 'price_i', builder: 'price_b' };
const subscription = (status: string, price = 'price_b') => ({
  id: 'sub_1',
  customer: { id: 'cus_1' },
  status,
  metadata: { project_id: 'prj_1' },
  items: { data: [{ price: { id: price } }] },
});

describe('billingUpdateOf', () => {
  it('reads the project, customer and plan of a completed subscription checkout', () => {
    const update = billingUpdateOf(
      {
        id: 'evt_1',
        type: 'checkout.session.completed',
        created: 1,
        data: {
          object: {
            mode: 'subscription',
            status: 'complete',
            client_reference_id: 'prj_1',
            customer: 'cus_1',
            subscription: 'sub_1',
            metadata: { plan: 'indie' },
          },
        },
      },
      PRICES,
    );
    expect(update).toEqual({
      projectId: 'prj_1',
      customerId: 'cus_1',
      subscriptionId: 'sub_1',
      subscriptionStatus: 'active',
      plan: 'indie',
    });
  });

  it('skips checkouts that are not completed subscriptions, and keeps the plan for unknown plan names', () => {
    const object = { mode: 'payment', status: 'complete', client_reference_id: 'prj_1' };
    expect(billingUpdateOf({ id: 'e', type: 'checkout.session.completed', created: 1, data: { object } }, PRICES)).toBeNull();
    const odd = { mode: 'subscription', status: 'complete', client_reference_id: 'prj_1', customer: 'cus_1', metadata: { plan: 'scale' } };
    expect(billingUpdateOf({ id: 'e', type: 'checkout.session.completed', created: 1, data: { object: odd } }, PRICES)?.plan).toBeNull();
  });

  it.each([
    ['active', 'builder'],
    ['trialing', 'builder'],
    ['past_due', 'builder'],
    ['canceled', 'free'],
    ['unpaid', 'free'],
    ['incomplete_expired', 'free'],
    ['incomplete', null],
    ['paused', null],
  ])('maps an updated subscription in state %s to plan %s', (status, plan) => {
    const update = billingUpdateOf(
      { id: 'e', type: 'customer.subscription.updated', created: 1, data: { object: subscription(status) } },
      PRICES,
    );
    expect(update).toMatchObject({ projectId: 'prj_1', customerId: 'cus_1', subscriptionStatus: status, plan });
  });

  it('sets free on deletion whatever the status says, and ignores other event types', () => {
    const deleted = billingUpdateOf(
      { id: 'e', type: 'customer.subscription.deleted', created: 1, data: { object: subscription('active') } },
      PRICES,
    );
    expect(deleted).toMatchObject({ plan: 'free', subscriptionStatus: 'canceled' });
    expect(billingUpdateOf({ id: 'e', type: 'invoice.paid', created: 1, data: { object: {} } }, PRICES)).toBeNull();
  });

  it('knows only the configured prices', () => {
    expect(planOfPrice(PRICES, 'price_i')).toBe('indie');
    expect(planOfPrice(PRICES, 'price_x')).toBeNull();
    expect(planOfPrice(PRICES, undefined)).toBeNull();
  });
});
