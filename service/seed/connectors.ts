// The catalogue's raw rows: name, platform, side, dataType, dataTypeCategory,
// platformType. Together they cover every enum value of the specification
// (a test checks it); names are unique so an exact-name lookup finds one.
import { DATA_TYPES, DATA_TYPE_CATEGORIES, PLATFORM_TYPES, SUPPORTED_TYPES } from "../../contract/values";

export type SeedRow = [
  name: string,
  platform: string,
  side: (typeof SUPPORTED_TYPES)[number],
  dataType: (typeof DATA_TYPES)[number],
  category: (typeof DATA_TYPE_CATEGORIES)[number],
  platformType: (typeof PLATFORM_TYPES)[number],
];

const SOCIAL = "Social Media Platform";
const CRM = "CRM Platform";
const DSP = "Demand-Side Platform (DSP)";
const CLOUD = "Cloud Storage Provider";
const MEDIA = "Media Management System";
const IDM = "Identity Management";
const SSP = "Supply-Side Platform (SSP)";
const CDP = "Customer Data Platform (CDP)";
const SHOP = "E-Commerce Platform";
const DATA = "Data Provider";

export const SEED_ROWS: readonly SeedRow[] = [
  ["Facebook Custom Audiences", "Meta", "Destination", "Custom Audiences", "audience activation", SOCIAL],
  ["Facebook Conversions API", "Meta", "Destination", "Conversions", "events", SOCIAL],
  ["Facebook Offline Conversions", "Meta", "Destination", "offline conversions", "events", SOCIAL],
  ["Facebook Ads Insights", "Meta", "Source", "Insights", "reporting", SOCIAL],
  ["Instagram Audiences", "Meta", "Destination", "audiences", "audience activation", SOCIAL],
  ["Google Ads Customer Match", "Google Ads", "Destination", "customer match", "audience activation", DSP],
  ["Google Ads Click Conversions", "Google Ads", "Destination", "click conversions", "events", DSP],
  ["Google Ads Campaigns", "Google Ads", "Destination", "ads management", "campaign management", DSP],
  ["Google Ads Reporting", "Google Ads", "Source", "ads analytics", "reporting", DSP],
  ["Google Analytics 4", "Google Analytics", "Source", "analytics", "reporting", DATA],
  ["Google Cloud Storage", "Google Cloud", "Destination", "data store", "data store", CLOUD],
  ["Google BigQuery", "Google Cloud", "Source", "data store", "data store", CLOUD],
  ["Amazon S3", "Amazon Web Services", "Source", "data store", "data store", CLOUD],
  ["Amazon S3 Export", "Amazon Web Services", "Destination", "data store", "data store", CLOUD],
  ["Amazon Redshift", "Amazon Web Services", "Destination", "data store", "data store", CLOUD],
  ["Amazon Kinesis Data Streams", "Amazon Web Services", "Source", "raw events data stream", "events", CLOUD],
  ["Amazon DSP Audiences", "Amazon Ads", "Destination", "audience DMP segments", "audience activation", DSP],
  ["Amazon Seller Central", "Amazon", "Source", "Insights", "reporting", SHOP],
  ["Salesforce CRM", "Salesforce", "Source", "Audiences - CRM API", "audience activation", CRM],
  ["Salesforce Marketing Cloud", "Salesforce", "Destination", "Campaign", "campaign management", CRM],
  ["HubSpot CRM", "HubSpot", "Source", "Audiences - CRM API", "audience activation", CRM],
  ["HubSpot Marketing Campaigns", "HubSpot", "Destination", "campaign posting", "campaign management", CRM],
  ["Microsoft Dynamics 365", "Microsoft", "Source", "identity management", "identity management", CRM],
  ["Mailchimp", "Intuit Mailchimp", "Destination", "Campaign", "campaign management", CRM],
  ["Snowflake", "Snowflake", "Source", "data store", "data store", CLOUD],
  ["Snowflake Export", "Snowflake", "Destination", "data store", "data store", CLOUD],
  ["Azure Blob Storage", "Microsoft Azure", "Destination", "data store", "data store", CLOUD],
  ["Databricks", "Databricks", "Source", "raw events data stream", "events", CLOUD],
  ["Confluent Cloud", "Confluent", "Source", "raw events data stream", "events", CLOUD],
  ["TikTok Audiences", "TikTok", "Destination", "Custom Audiences", "audience activation", SOCIAL],
  ["TikTok Events API", "TikTok", "Destination", "raw real-time conversion events", "events", SOCIAL],
  ["Snapchat Audience Match", "Snap", "Destination", "Audiences - Data API", "audience activation", SOCIAL],
  ["Snapchat Conversions API", "Snap", "Destination", "Conversions", "events", SOCIAL],
  ["Pinterest Audiences", "Pinterest", "Destination", "audiences", "audience activation", SOCIAL],
  ["Pinterest Offline Conversions", "Pinterest", "Destination", "offline conversions", "events", SOCIAL],
  ["LinkedIn Matched Audiences", "LinkedIn", "Destination", "custom file audiences", "audience activation", SOCIAL],
  ["LinkedIn Campaign Manager", "LinkedIn", "Source", "ads management", "campaign management", SOCIAL],
  ["X Ads Tailored Audiences", "X", "Destination", "Custom Audiences", "audience activation", SOCIAL],
  ["Reddit Ads Conversions", "Reddit", "Destination", "click conversions", "events", SOCIAL],
  ["The Trade Desk Segments", "The Trade Desk", "Destination", "audience DMP segments", "audience activation", DSP],
  ["The Trade Desk Reporting", "The Trade Desk", "Source", "reporting", "reporting", DSP],
  [
    "Display & Video 360 Audiences",
    "Google Marketing Platform",
    "Destination",
    "audiences",
    "audience activation",
    DSP,
  ],
  [
    "Campaign Manager 360 Offline Conversions",
    "Google Marketing Platform",
    "Destination",
    "raw offline conversion events",
    "events",
    DSP,
  ],
  ["Xandr Invest", "Microsoft Advertising", "Destination", "Campaign", "campaign management", DSP],
  ["Microsoft Advertising Reporting", "Microsoft Advertising", "Source", "ads analytics", "reporting", DSP],
  ["Magnite Streaming Segments", "Magnite", "Destination", "audience DMP segments", "audience activation", SSP],
  ["PubMatic Identity Hub", "PubMatic", "Destination", "ID match", "identity management", SSP],
  ["Index Exchange Reporting", "Index Exchange", "Source", "reporting", "reporting", SSP],
  ["OpenX Analytics", "OpenX", "Source", "ads analytics", "reporting", SSP],
  ["LiveRamp RampID", "LiveRamp", "Destination", "ID match", "identity management", IDM],
  ["LiveRamp Identity Resolution", "LiveRamp", "Source", "identity management", "identity management", IDM],
  ["Unified ID 2.0 Operator", "Unified ID 2.0", "Destination", "ID match", "identity management", IDM],
  ["Okta Customer Identity", "Okta", "Source", "identity management", "identity management", IDM],
  ["Segment", "Twilio Segment", "Source", "events", "events", CDP],
  ["Segment Audiences", "Twilio Segment", "Destination", "audiences", "audience activation", CDP],
  ["mParticle", "mParticle", "Source", "raw real-time conversion events", "events", CDP],
  ["Tealium AudienceStream", "Tealium", "Destination", "audiences", "audience activation", CDP],
  ["Adobe Real-Time CDP", "Adobe", "Source", "Audiences - Data API", "audience activation", CDP],
  ["Braze Campaigns", "Braze", "Destination", "campaign posting", "campaign management", CDP],
  ["Amplitude", "Amplitude", "Source", "analytics", "reporting", CDP],
  ["Shopify", "Shopify", "Source", "events", "events", SHOP],
  ["Shopify POS Orders", "Shopify", "Source", "raw offline conversion events", "events", SHOP],
  ["Adobe Commerce", "Adobe", "Source", "offline conversions", "events", SHOP],
  ["BigCommerce", "BigCommerce", "Source", "events", "events", SHOP],
  ["Foursquare Places", "Foursquare", "Source", "geo events", "events", DATA],
  ["Placer.ai Foot Traffic", "Placer.ai", "Source", "geo events", "events", DATA],
  ["Experian Audiences", "Experian", "Source", "audiences", "audience activation", DATA],
  ["Nielsen Insights", "Nielsen", "Source", "Insights", "reporting", DATA],
  ["Mixpanel", "Mixpanel", "Source", "analytics", "reporting", DATA],
  ["Brightcove Video Cloud", "Brightcove", "Destination", "transcoding", "data store", MEDIA],
  ["Cloudinary", "Cloudinary", "Destination", "transcoding", "data store", MEDIA],
  ["Bynder", "Bynder", "Source", "campaign posting", "campaign management", MEDIA],
];
