/** The five topics the spec names; the shops' own names map onto these. */
export const commerceTopics = [
  'orders/create',
  'orders/updated',
  'products/create',
  'products/update',
  'products/delete',
] as const
export type CommerceTopic = (typeof commerceTopics)[number]
