# The Compute service: what `fastly compute publish` makes from fastly.toml's [setup], plus what
# [setup] cannot say (the HTTPS log to the controller, ACLs, Bot Management). The names below are
# the ones the code opens (src/fastly/names.ts); test/deploy/terraform.test.ts holds them equal.

locals {
  package_file = coalesce(var.package_file, "${path.module}/../../pkg/fastly-waiting-room.tar.gz")
  origin_host  = coalesce(var.origin_tls_hostname, var.origin_address)
  https_log    = var.https_log_url != null
}

# The provider's own hash of the package's files: a new build gives a new service version on apply.
data "fastly_package_hash" "room" {
  filename = local.package_file
}

resource "fastly_service_compute" "room" {
  name          = var.service_name
  comment       = "Waiting room (deploy/terraform)"
  activate      = var.activate
  force_destroy = var.force_destroy

  domain {
    name = var.domain
  }

  backend {
    name              = "origin"
    address           = var.origin_address
    port              = var.origin_port
    use_ssl           = var.origin_use_tls
    ssl_check_cert    = var.origin_use_tls
    ssl_cert_hostname = var.origin_use_tls ? local.origin_host : null
    ssl_sni_hostname  = var.origin_use_tls ? local.origin_host : null
    override_host     = var.origin_override_host
  }

  package {
    filename         = local.package_file
    source_code_hash = data.fastly_package_hash.room.hash
  }

  resource_link {
    name        = "waiting_room_config"
    resource_id = fastly_configstore.config.id
  }

  resource_link {
    name        = "waiting_room_pages"
    resource_id = fastly_configstore.pages.id
  }

  resource_link {
    name        = "waiting_room_keys"
    resource_id = fastly_secretstore.keys.id
  }

  # Each ACL under the name routing rules give it ({"acl": "NAME"}).
  dynamic "resource_link" {
    for_each = fastly_compute_acl.bypass
    content {
      name        = resource_link.key
      resource_id = resource_link.value.id
    }
  }

  # The decision lines to the controller's HTTPS receiver (docs/control/running.md): newline-delimited
  # JSON, each batch carrying the header the controller checks. The seeded settings name this endpoint.
  dynamic "logging_https" {
    for_each = local.https_log ? [var.https_log_url] : []
    content {
      name         = var.https_log_name
      url          = logging_https.value
      method       = "POST"
      message_type = "blank"
      json_format  = "2"
      header_name  = var.https_log_header_name
      header_value = var.https_log_header_value
    }
  }

  # Off by default: without it verified_bot rules never apply (docs/routing.md). Removing the block
  # later makes the provider disable the product (docs/guides/product_enablement.md of the provider).
  dynamic "product_enablement" {
    for_each = var.bot_management ? ["on"] : []
    content {
      bot_management {
        enabled      = true
        contentguard = "off"
      }
    }
  }

  # The first activation finds the seeded settings and routing, and the ACLs' entries.
  depends_on = [fastly_configstore_entries.config_seed, fastly_compute_acl_entries.bypass]

  lifecycle {
    precondition {
      condition     = !local.https_log || var.https_log_header_value != null
      error_message = "https_log_url needs https_log_header_value (TF_VAR_https_log_header_value): the controller's --https-secret, so nobody else can post lines to it."
    }
  }
}
