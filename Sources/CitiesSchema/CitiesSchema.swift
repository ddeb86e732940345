/// The city-ranking app's database (CONTRACTS §7), what `geo-cities` writes and the night
/// applies: the migration's text and name (Migration.swift).
public enum CitiesSchema {}
