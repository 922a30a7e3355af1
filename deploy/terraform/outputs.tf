output "service_id" {
  description = "The Compute service's id."
  value       = fastly_service_compute.room.id
}

output "config_store_id" {
  description = "waiting_room_config's id."
  value       = fastly_configstore.config.id
}

output "page_store_id" {
  description = "waiting_room_pages's id."
  value       = fastly_configstore.pages.id
}

output "key_store_id" {
  description = "waiting_room_keys's id."
  value       = fastly_secretstore.keys.id
}

output "acl_ids" {
  description = "Each bypass ACL's id, by the name routing rules use."
  value       = { for name, acl in fastly_compute_acl.bypass : name => acl.id }
}

output "key_command" {
  description = "Creates the signing key the seeded active_key names, from fresh random bytes sent on stdin: run it right after the first apply."
  value       = "npm run keys -- add ${local.seed_settings.active_key} --fastly-service ${fastly_service_compute.room.id} --secret-store-id ${fastly_secretstore.keys.id}"
}

output "tune_command" {
  description = "Changes settings live (add KEY=VALUE; --room ID for one room, --routing FILE for rooms and rules)."
  value       = "npm run tune -- --service ${fastly_service_compute.room.id} --store-id ${fastly_configstore.config.id}"
}

output "allow_percentage_command" {
  description = "Changes room main's chance live with one item update."
  value       = "npx fastly config-store-entry update --store-id ${fastly_configstore.config.id} --key room.main.allow_percentage --value 30"
}

output "pages_command" {
  description = "Prints the commands that upload custom pages."
  value       = "npm run pages -- --fastly-service ${fastly_service_compute.room.id}"
}

output "log_endpoint_command" {
  description = "Tells a room seeded before the HTTPS log existed to use it (the initial entries are written once)."
  value       = local.https_log ? "npm run tune -- --service ${fastly_service_compute.room.id} log_endpoint=${var.https_log_name}" : null
}
