/// The city-ranking app's database (CONTRACTS §7), what `geo-cities` writes and the night
/// applies: the migrations' texts and names (Migrations/: the tables, then the search of issue #33).
public enum CitiesSchema {}
