// The connectors of an embedded data-integration service: add catalogue connectors to a sub-account, keep their secret configurations, look the catalogue up, and detect drift.
package embedded
