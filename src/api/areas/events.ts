/** Topics, event types and subscriptions (event manager). */
import { EVENTS, call, type PlatformCore } from '../core';
import { PlatformError } from '../errors';
import * as S from '../schemas';

export interface SubscriptionBody {
  subscription_id: string;
  topic_id: string;
  types: string[];
  subject_types?: string[];
  tenant_id?: string;
  tenant_depth: 'CURRENT' | 'DIRECT' | 'ALL';
  cel?: string;
  auto_commit?: boolean;
  auto_commit_interval?: string;
  session_timeout?: string;
}

export const eventsMethods = {
  listTopics(this: PlatformCore, topicId?: string): Promise<S.Topic[]> {
    return this[call]({
      method: 'GET',
      endpoint: `${EVENTS}/topics`,
      query: { topic_id: topicId },
      schema: S.Topic.array(),
    });
  },

  listEventTypes(this: PlatformCore, opts: { topicId?: string; typeId?: string } = {}): Promise<S.EventType[]> {
    return this[call]({
      method: 'GET',
      endpoint: `${EVENTS}/types`,
      query: { topic_id: opts.topicId, type_id: opts.typeId },
      schema: S.EventType.array(),
    });
  },

  /**
   * Creates a subscription. Its id is chosen by the caller, so the POST is idempotent and retried.
   * When a retry meets 409 (the first attempt did create it but its answer was lost), the
   * subscription as sent is returned.
   */
  async createSubscription(this: PlatformCore, sub: SubscriptionBody): Promise<S.Subscription> {
    try {
      return await this[call]({
        method: 'POST',
        endpoint: `${EVENTS}/subscriptions`,
        json: sub,
        schema: S.Subscription,
        idempotent: true,
      });
    } catch (e) {
      if (e instanceof PlatformError && e.status === 409 && e.attempts > 1) return { ...sub };
      throw e;
    }
  },

  /** GAPS.md: reading a subscription back (the only existence check; 404 when it does not exist). */
  getSubscriptionOffset(this: PlatformCore, subscriptionId: string): Promise<S.SubscriptionOffset> {
    return this[call]({
      method: 'GET',
      endpoint: `${EVENTS}/subscriptions/offset`,
      query: { subscription_id: subscriptionId },
      schema: S.SubscriptionOffset,
    });
  },
};
