// The rooms' models as the state file saves them, already JSON text: the planner thread encodes them,
// so no object is cloned between threads.
/** The rooms' saved models as JSON text already (the planner thread encodes them: no clone of the objects between threads). */
export class RoomsJson {
  constructor(readonly text: string) {}
}
