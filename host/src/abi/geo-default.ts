// Viceroy answers geolocation for loopback addresses with fixed data (Fastly's San Francisco
// office) unless `use_default_loopback = false`; the same object keeps apps behaving alike.
export const geoDefaultLoopback: Record<string, unknown> = {
  as_name: 'Fastly, Inc',
  as_number: 54113,
  area_code: 415,
  city: 'San Francisco',
  conn_speed: 'broadband',
  conn_type: 'wired',
  continent: 'NA',
  country_code: 'US',
  country_code3: 'USA',
  country_name: 'United States of America',
  latitude: 37.77869,
  longitude: -122.39557,
  metro_code: 0,
  postal_code: '94107',
  proxy_description: '?',
  proxy_type: '?',
  region: 'CA',
  utc_offset: -700,
};
