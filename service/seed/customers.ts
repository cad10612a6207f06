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

/** Sub-accounts each customer starts with (`--sub-accounts`, `subAccountsPerCustomer`). */
export const SUB_ACCOUNTS_PER_CUSTOMER = 3;

/** The id of a customer's n-th sub-account (n from 1): the same on every run. */
export function subAccountId(customerIndex: number, n: number): string {
  return stableId("sub-account", `customer-${customerIndex + 1}/sub-${n}`);
}

export function seedCustomers(
  firstCustomer?: Partial<CustomerCredentials>,
  subAccountsPerCustomer = SUB_ACCOUNTS_PER_CUSTOMER,
): SeededCustomer[] {
  return DEFAULT_CUSTOMERS.map((defaults, index) => {
    const credentials = index === 0 ? { ...defaults, ...firstCustomer } : defaults;
    const key = `customer-${index + 1}`;
    return {
      clientId: credentials.clientId,
      clientSecret: credentials.clientSecret,
      organizationAccountId: stableId("organization-account", key),
      subAccountIds: Array.from({ length: subAccountsPerCustomer }, (_, n) => subAccountId(index, n + 1)),
    };
  });
}
