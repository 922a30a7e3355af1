# The stores and ACLs, each linked to the service in main.tf under the name the code opens.
#
# waiting_room_config is written live: `npm run tune` rewrites routing, settings and room.ID, the
# controller room.ID.allow_percentage, room.ID.live and controller. So Terraform seeds it once and
# never touches a key again: manage_entries = false (the provider then suppresses every later diff of
# entries) and ignore_changes = [entries] (so a later manage_entries = true still changes nothing).
# With manage_entries = true an apply would delete every key the controller and tune wrote.

locals {
  # fastly.toml's [setup] items, as values: the same defaults as `fastly compute publish` seeds.
  seed_routing = {
    rooms        = [{ id = "main", routes = ["/"] }]
    default_room = "main"
    rules        = []
  }
  seed_settings = {
    enabled               = "true"
    allow_percentage      = "100"
    allow_period_duration = "3600"
    wait_period_duration  = "30"
    cookie_lifetime       = "7200"
    active_key            = "key1"
  }
  # With the HTTPS log, the room is told the endpoint's name (log_endpoint) from the start.
  seed_settings_json = local.https_log ? jsonencode(merge(local.seed_settings, { log_endpoint = var.https_log_name })) : jsonencode(local.seed_settings)

  # Room main's status basis (docs/status.md): the copy of the settings its public status reads, as
  # `npm run tune` writes it, dated 0 (as set up). Without it the status says "unknown" until a tune or
  # the controller writes one.
  seed_status_basis = {
    at = 0
    settings = {
      enabled              = local.seed_settings.enabled
      allow_percentage     = local.seed_settings.allow_percentage
      wait_period_duration = local.seed_settings.wait_period_duration
    }
  }

  seed_entries = {
    routing                      = jsonencode(local.seed_routing)
    settings                     = local.seed_settings_json
    "room.main.allow_percentage" = "100"
    "room.main.live"             = jsonencode({ status_basis = jsonencode(local.seed_status_basis) })
  }
}

resource "fastly_configstore" "config" {
  name          = "${var.store_name_prefix}waiting_room_config"
  force_destroy = var.force_destroy
}

resource "fastly_configstore_entries" "config_seed" {
  store_id       = fastly_configstore.config.id
  entries        = local.seed_entries
  manage_entries = false

  lifecycle {
    ignore_changes = [entries]
  }
}

# Custom pages (`npm run pages -- --fastly-service ID`); empty means the built-in ones.
resource "fastly_configstore" "pages" {
  name          = "${var.store_name_prefix}waiting_room_pages"
  force_destroy = var.force_destroy
}

# Token signing keys. Created empty: the provider cannot seed secrets (README.md, "Signing keys").
resource "fastly_secretstore" "keys" {
  name = "${var.store_name_prefix}waiting_room_keys"
}

resource "fastly_compute_acl" "bypass" {
  for_each = var.bypass_acls
  name     = "${var.store_name_prefix}${each.key}"
}

# Terraform owns these: a CIDR taken out of bypass_acls is taken out of the ACL, so no stale bypass
# stays open. Nothing in the room or the tools writes ACL entries.
resource "fastly_compute_acl_entries" "bypass" {
  for_each       = var.bypass_acls
  compute_acl_id = fastly_compute_acl.bypass[each.key].id
  entries        = { for cidr in each.value : cidr => "ALLOW" }
  manage_entries = true
}
