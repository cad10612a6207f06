// The output values of the floor resources, shared by the dynamic floor (floor.ts) and the
// native one (bench/plugin-floor, which compiles this file into its bundle): static, of
// realistic sizes, so that both floors move the same bytes as this package's resources.

/** Output values of an AddedConnector. */
export function connectorOutputs(connectorId: string): Record<string, unknown> {
  return {
    platformId: "d9c1f7b083367829",
    name: `Floor connector ${connectorId}`,
    logo: "https://logos.example.com/floor.svg",
    dataType: "events",
    dataTypeCategory: "events",
    platformType: "Customer Data Platform (CDP)",
    supportedType: "Source",
    transfer: true,
    configured: false,
    description: `Floor connector ${connectorId}: events source on Floor (events).`,
    srcConnections: 0,
    destConnections: 0,
    editable: true,
    env: "production",
  };
}

/** Output values of a ConnectorConfiguration (lastUpdated changes with the secret, as a write would). */
export function configurationOutputs(inputs: Record<string, unknown>): Record<string, unknown> {
  const stamp = 1_700_000_000 + JSON.stringify(inputs.secretConfig ?? {}).length;
  return {
    configurationId: inputs.configurationId ?? "6f36adc1a0225a84",
    configured: true,
    lastUpdated: stamp,
    appliedLastUpdated: stamp,
    values: { apiBaseUrl: "https://api.floor.example.com/v1", batchSize: "100", dataCenter: "EU", workspace: "bench" },
    fingerprint: `hmac-sha256:${"0".repeat(64)}`,
    fingerprintSalt: "6aff1e7bbe92b4a2d5dfac48912199b8",
  };
}

/** The configuration's outputs that are secret (the real resource's secret outputs). */
export const CONFIGURATION_SECRET_OUTPUTS = ["fingerprint", "values"];
