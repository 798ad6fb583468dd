class Fake {}
