PRAGMA foreign_keys = ON;
CREATE TABLE routes (
  id TEXT PRIMARY KEY,
  position INTEGER NOT NULL UNIQUE,      -- the order the app lists the routes in
  name TEXT NOT NULL,
  country_code TEXT NOT NULL,            -- ISO 3166-1 alpha-2
  length_km REAL NOT NULL                -- geodesic (WGS84) length through every location
);
CREATE TABLE locations (
  id INTEGER PRIMARY KEY,
  route_id TEXT NOT NULL REFERENCES routes(id),
  position INTEGER NOT NULL,             -- 1, 2, 3, … along the route
  name TEXT NOT NULL,
  latitude REAL NOT NULL,
  longitude REAL NOT NULL,
  minutes_to_unlock INTEGER NOT NULL,    -- focus minutes from the previous location (0 at the start)
  cumulative_minutes INTEGER NOT NULL,   -- focus minutes from the route's start
  distance_km REAL NOT NULL,             -- geodesic distance from the route's start
  description TEXT NOT NULL,
  source TEXT NOT NULL,
  UNIQUE (route_id, position)
);
CREATE TABLE tags (
  id INTEGER PRIMARY KEY,
  name TEXT NOT NULL UNIQUE
);
CREATE TABLE location_tags (
  location_id INTEGER NOT NULL REFERENCES locations(id),
  tag_id INTEGER NOT NULL REFERENCES tags(id),
  position INTEGER NOT NULL,             -- the tag's place in the location's list
  PRIMARY KEY (location_id, tag_id)
);
CREATE TABLE rewards (
  hours INTEGER PRIMARY KEY,             -- total focus hours that unlock it
  id TEXT NOT NULL UNIQUE,
  title TEXT NOT NULL,
  description TEXT NOT NULL
);