// The value lists of the specification. No zod here: the provider's definitions (and through
// them its public declarations) may reach this file.

export const DATA_TYPES = [
  "Custom Audiences",
  "identity management",
  "reporting",
  "data store",
  "Campaign",
  "customer match",
  "offline conversions",
  "analytics",
  "campaign posting",
  "Audiences - Data API",
  "audiences",
  "custom file audiences",
  "geo events",
  "events",
  "ads management",
  "raw real-time conversion events",
  "Conversions",
  "audience DMP segments",
  "Insights",
  "transcoding",
  "click conversions",
  "ads analytics",
  "ID match",
  "raw offline conversion events",
  "raw events data stream",
  "Audiences - CRM API",
] as const;
export const DATA_TYPE_CATEGORIES = [
  "audience activation",
  "identity management",
  "reporting",
  "data store",
  "campaign management",
  "events",
] as const;
export const PLATFORM_TYPES = [
  "Social Media Platform",
  "CRM Platform",
  "Demand-Side Platform (DSP)",
  "Cloud Storage Provider",
  "Media Management System",
  "Identity Management",
  "Supply-Side Platform (SSP)",
  "Customer Data Platform (CDP)",
  "E-Commerce Platform",
  "Data Provider",
] as const;
export const SUPPORTED_TYPES = ["Source", "Destination"] as const;
/** The field descriptor types the specification names; the list is open (a client keeps unknown ones). */
export const FIELD_TYPES = ["Text", "Number", "Date", "Select", "Multi-Select", "Password"] as const;

export type DataType = (typeof DATA_TYPES)[number];
export type DataTypeCategory = (typeof DATA_TYPE_CATEGORIES)[number];
export type PlatformType = (typeof PLATFORM_TYPES)[number];
export type SupportedType = (typeof SUPPORTED_TYPES)[number];
export type FieldType = (typeof FIELD_TYPES)[number];
