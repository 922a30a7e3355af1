# Inputs. Only the domain and the origin's address have no default. No variable carries a token
# signing key: the provider has no resource for Secret Store entries (README.md, "Signing keys").

variable "service_name" {
  description = "Name of the Compute service (fastly.toml's name)."
  type        = string
  default     = "fastly-waiting-room"
}

variable "domain" {
  description = "The domain visitors reach the room on, e.g. shop.example.com (CNAME it to Fastly)."
  type        = string
}

variable "origin_address" {
  description = "Address of the site behind the room (backend `origin`): a hostname or an IP address."
  type        = string
}

variable "origin_port" {
  description = "Port of the origin."
  type        = number
  default     = 443
}

variable "origin_use_tls" {
  description = "Reach the origin over TLS, checking its certificate."
  type        = bool
  default     = true
}

variable "origin_tls_hostname" {
  description = "Hostname for SNI and the certificate check; null: origin_address (give one when that is an IP address)."
  type        = string
  default     = null
}

variable "origin_override_host" {
  description = "Host header sent to the origin; null: the visitor's own Host header."
  type        = string
  default     = null
}

variable "package_file" {
  description = "The package `fastly compute build` makes; null: pkg/fastly-waiting-room.tar.gz at the repository's root."
  type        = string
  default     = null
}

variable "store_name_prefix" {
  description = "Prefix of the stores' and ACLs' account-wide names (e.g. \"staging_\" for a second service in one account). The names the code opens are the resource links', which never change."
  type        = string
  default     = ""
}

variable "activate" {
  description = "Activate each new service version on apply (the provider's activate)."
  type        = bool
  default     = true
}

variable "force_destroy" {
  description = "Let `terraform destroy` remove an active service and non-empty Config Stores."
  type        = bool
  default     = false
}

variable "bypass_acls" {
  description = "Compute ACLs for routing rules (docs/routing.md's `acl` condition): ACL name -> CIDRs, each entered with action ALLOW. Terraform owns these entries."
  type        = map(list(string))
  default     = {}

  validation {
    condition     = alltrue([for name in keys(var.bypass_acls) : can(regex("^[A-Za-z0-9_.-]{1,255}$", name)) && !contains(["waiting_room_config", "waiting_room_pages", "waiting_room_keys"], name)])
    error_message = "An ACL name is letters, digits, \"_\", \".\" and \"-\" (what a routing rule's acl condition accepts), and not one of the stores' link names."
  }

  validation {
    condition     = alltrue([for cidrs in values(var.bypass_acls) : alltrue([for cidr in cidrs : can(cidrhost(cidr, 0))]) && length(distinct(cidrs)) == length(cidrs)])
    error_message = "Each ACL entry is a CIDR block (203.0.113.7/32 for one address), each once."
  }
}

variable "https_log_url" {
  description = "URL of the controller's HTTPS log receiver (`npm run control -- --source https:PORT`, docs/control/running.md); null: no log endpoint."
  type        = string
  default     = null

  validation {
    condition     = var.https_log_url == null ? true : startswith(var.https_log_url, "https://")
    error_message = "Fastly posts logs to https:// URLs only."
  }
}

variable "https_log_name" {
  description = "Name of the HTTPS log endpoint: the room's log_endpoint setting names it (seeded when https_log_url is set)."
  type        = string
  default     = "waiting_room_log"
}

variable "https_log_header_name" {
  description = "Header every log batch carries: the name in the controller's --https-secret NAME=VALUE."
  type        = string
  default     = "X-Room-Log"
}

variable "https_log_header_value" {
  description = "Its value, the VALUE of --https-secret: give it as TF_VAR_https_log_header_value, never in a file. Required with https_log_url."
  type        = string
  default     = null
  sensitive   = true
}

variable "bot_management" {
  description = "Enable Fastly Bot Management (an entitlement of the account) so routing rules with verified_bot apply."
  type        = bool
  default     = false
}
