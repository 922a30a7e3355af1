# The provider version the module was checked against: test/deploy/fastly-provider-schema.json records
# that version's documented schema, and test/deploy/terraform.test.ts holds the two equal. Before
# moving the pin, check the fixture against the new version's docs/resources/*.md.
terraform {
  # precondition (1.2) and startswith (1.3).
  required_version = ">= 1.3.0"

  required_providers {
    fastly = {
      source  = "fastly/fastly"
      version = "9.5.1"
    }
  }
}

# No provider block: the Fastly provider reads its API token from FASTLY_API_KEY (README.md).
