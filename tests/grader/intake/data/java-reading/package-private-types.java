// package: puzzle.eight
// types: Board Solver Direction Shape Move Puzzle Piece
// declared: Board Solver Direction Shape Move Puzzle Piece
// uses: Board Direction Tile
// errors: no
package puzzle
    . /* the course's package */ eight;

public class Board { }

final class Solver { Board board; Direction next; }

enum Direction { UP, DOWN }

interface Shape { int size(); }

record Move(int tile, Direction direction) { }

@interface Puzzle { }

sealed interface Piece permits Tile { }
