// The two seeded customers. Account ids derive from the customer's position,
// not its clientId, so that --client-id does not move the demo sub-accounts.
import type { Customer, CustomerCredentials } from "../domain/auth";
import { stableId } from "../domain/ids";

export type { CustomerCredentials } from "../domain/auth";
export type SeededCustomer = Customer;

export const DEFAULT_CUSTOMERS: readonly CustomerCredentials[] = [
  { clientId: "demo-client", clientSecret: "demo-secret" },
  { clientId: "other-client", clientSecret: "other-secret" },
];

const SUB_ACCOUNTS_PER_CUSTOMER = 3;

export function seedCustomers(firstCustomer?: Partial<CustomerCredentials>): SeededCustomer[] {
  return DEFAULT_CUSTOMERS.map((defaults, index) => {
    const credentials = index === 0 ? { ...defaults, ...firstCustomer } : defaults;
    const key = `customer-${index + 1}`;
    return {
      clientId: credentials.clientId,
      clientSecret: credentials.clientSecret,
      organizationAccountId: stableId("organization-account", key),
      subAccountIds: Array.from({ length: SUB_ACCOUNTS_PER_CUSTOMER }, (_, n) =>
        stableId("sub-account", `${key}/sub-${n + 1}`),
      ),
    };
  });
}
