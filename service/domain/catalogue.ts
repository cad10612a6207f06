// What the domain knows of a catalogue connector, and the pairing rule between
// connectors. The catalogue itself is data (service/seed builds it); buildApp
// hands it to the domain, which never imports the seed.
import type { Strict } from "../../contract/views";

export interface CatalogueConnector extends Strict<"Connector"> {
  transfer: boolean;
  description: string;
  secretConfiguration: { configurationId: string; name: string; fields: Strict<"FieldDescriptor">[] };
  connectionConfig: { configurationId: string; name: string; configuration: Strict<"FieldDescriptor">[] }[];
}

/**
 * Pairing rule of List Supported Connectors: a source pairs with every
 * destination of its dataTypeCategory, and warehouses ("data store") pair
 * with everything on the other side.
 */
export function pairs(a: CatalogueConnector, b: CatalogueConnector): boolean {
  if (a.supportedType === b.supportedType) return false;
  return (
    a.dataTypeCategory === b.dataTypeCategory ||
    a.dataTypeCategory === "data store" ||
    b.dataTypeCategory === "data store"
  );
}
