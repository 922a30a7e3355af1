// The built-in strings in Spanish (Spain), "usted" throughout: the safe register for a public page
// that anyone may land on. Millions take "de" ("1.000.000 de personas"): the `many` cases.
import type { LocaleInfo } from '../types.js';
import type { Catalog } from './en-US.js';

export const info: LocaleInfo = {
  tag: 'es-ES',
  name: 'Español',
  dir: 'ltr',
  number: { decimal: ',', group: '.', minimumGroupingDigits: 2, digits: '0123456789' },
};

const proof = 'Su navegador está haciendo una breve comprobación para impedir el acceso de compradores automatizados: ';

export const catalog: Catalog = {
  fromSite: 'Mensaje del sitio web:',
  languageLabel: 'Idioma',
  checkNow: 'Comprobar ahora',

  durationUnknown: 'un tiempo indeterminado',
  durationUnderMinute: 'menos de un minuto',
  durationMinutes:
    '{minutes, plural, =1 {aproximadamente un minuto} one {aproximadamente # minuto} many {unos # de minutos} other {unos # minutos}}',
  durationHours:
    '{hours, plural, =1 {aproximadamente una hora} one {aproximadamente # hora} many {unos # de horas} other {unas # horas}}',
  durationRangeMinutes:
    '{to, plural, one {entre {from} y # minuto aproximadamente} many {entre {from} y # de minutos aproximadamente} other {entre {from} y # minutos aproximadamente}}',
  durationRangeHours:
    '{to, plural, one {entre {from} y # hora aproximadamente} many {entre {from} y # de horas aproximadamente} other {entre {from} y # horas aproximadamente}}',
  durationRange: 'de {from} a {to}',
  peopleNone: 'nadie',
  peopleExact: '{count, plural, one {# persona} many {# de personas} other {# personas}}',
  peopleAbout: '{count, plural, one {aproximadamente # persona} many {unos # de personas} other {unas # personas}}',
  dateUtc: '{weekday}, {day} de {month} de {year}, a las {time} UTC',
  weekdays: 'domingo|lunes|martes|miércoles|jueves|viernes|sábado',
  months: 'enero|febrero|marzo|abril|mayo|junio|julio|agosto|septiembre|octubre|noviembre|diciembre',

  waitingTitleStart: 'Está en la cola',
  waitingTitleKeep: 'Sigue en la cola',
  waitingIntroStartRandom:
    'El sitio web está recibiendo muchísimas visitas. Para que funcione bien para todos, se deja entrar a los visitantes poco a poco, elegidos al azar entre todas las personas que esperan.',
  waitingIntroStartFifo:
    'El sitio web está recibiendo muchísimas visitas. Para que funcione bien para todos, se deja entrar a los visitantes poco a poco, por orden de llegada.',
  waitingIntroKeepRandom:
    'Todavía no es su turno. El sitio web está recibiendo muchísimas visitas, así que se deja entrar a los visitantes poco a poco, elegidos al azar entre todas las personas que esperan.',
  waitingIntroKeepFifo:
    'Todavía no es su turno. El sitio web está recibiendo muchísimas visitas, así que se deja entrar a los visitantes poco a poco, por orden de llegada.',
  waitingIntroKeepPrequeue:
    'Todavía no es su turno. Al empezar la venta, a todas las personas de la cola previa, también a usted, se les asignó al azar un lugar en la cola. Se deja entrar a los visitantes poco a poco, en el orden de esos lugares.',
  waitingKeepOpen:
    'Mantenga esta página abierta: comprueba por usted si ya es su turno y, cuando lo sea, le dará paso al sitio web. Actualizar la página no cambia sus probabilidades, y puede irse cuando quiera.',
  placeHeading: 'Su lugar en la cola',
  placeAhead: 'Delante de usted: {people}',
  turnIn: 'Su turno llegará en {duration}.',
  yourLane: 'Su cola de espera: {lane}',
  waitHeading: 'Tiempo de espera estimado',
  waitWithin: 'La mayoría de los visitantes entra en {duration}',
  waitWithinMinute: 'La mayoría de los visitantes entra en menos de un minuto',
  waitPending: 'Todavía lo estamos calculando. Esta página lo mostrará en cuanto se sepa.',
  wait25: '1 de cada 4 visitantes entra en {duration}',
  wait50: 'La mitad, en {duration}',
  wait75: '3 de cada 4, en {duration}',
  noscriptWaiting:
    'Los scripts están desactivados, así que esta página no puede hacer las comprobaciones por usted. Su próxima oportunidad llegará en {seconds, plural, one {aproximadamente # segundo} many {unos # de segundos} other {unos # segundos}}.',
  noscriptProof: 'Mientras el sitio web tenga tantas visitas, sin scripts sus probabilidades son menores.',
  notifyButton: 'Avisarme cuando sea mi turno',

  prequeueTitle: 'La venta empieza pronto',
  prequeueIntro:
    'Está en la cola previa. Cuando empiece la venta, a todas las personas de la cola previa se les asignará al azar un lugar en la cola.',
  prequeueStartLabel: 'Inicio de la venta:',
  prequeueNoJump:
    'Llegar antes, actualizar la página o abrir más pestañas no le hace avanzar. Mantenga esta página abierta: le dará paso cuando empiece la venta.',
  prequeueNoscript:
    'Los scripts están desactivados, así que esta página no puede hacer las comprobaciones por usted. Vuelva cuando haya empezado la venta y actualice la página.',

  denyTitle: 'Cerrado por ahora',
  denyBody: 'En este momento el sitio web no admite nuevos visitantes. No hay ningún problema por su parte.',
  closedTitle: 'La venta ha terminado',
  closedBody:
    'Este evento ha finalizado y el sitio web ya no admite visitantes a través de él. No hay ningún problema por su parte.',
  tryLater: 'Vuelva a intentarlo más tarde.',
  tryAgain: 'Volver a intentarlo',
  denyAuto:
    'Mientras esta página siga abierta, volverá a intentarlo cada pocos minutos y le dará paso en cuanto el sitio web abra.',

  originDownTitle: 'No disponible temporalmente',
  originDownHeading: 'El sitio web no responde en este momento',
  originDownBody: 'Vuelva a intentarlo en unos instantes.',
  hammerTitle: 'Sigue en espera',
  hammerHeading: 'Todavía está en la cola',
  hammerBody:
    '{seconds, plural, one {Esta página se ha consultado con demasiada frecuencia. No pierde su lugar: la página volverá a intentarlo por sí sola dentro de # segundo.} many {Esta página se ha consultado con demasiada frecuencia. No pierde su lugar: la página volverá a intentarlo por sí sola dentro de # de segundos.} other {Esta página se ha consultado con demasiada frecuencia. No pierde su lugar: la página volverá a intentarlo por sí sola dentro de # segundos.}}',

  clientNextCheck: 'Próxima comprobación en {time}',
  clientStartsIn: 'Empieza en {time}',
  clientMoment: 'un momento',
  clientNotYet: 'Todavía no es su turno. La próxima comprobación será en {time}.',
  clientTurn: 'Ha llegado su turno. Cargando el sitio web…',
  clientTurnTitle: '¡Es su turno!',
  clientTurnBody: 'Vuelva a esta pestaña para entrar en el sitio web.',
  clientNotifyOn: 'Recibirá una notificación cuando sea su turno.',
  clientUnreachable: 'No se ha podido conectar con el sitio web. Se volverá a intentar en breve.',
  clientStarted: 'La venta ha empezado. Cargando…',
  clientStillClosed: 'Sigue cerrado. Esta página volverá a intentarlo dentro de unos minutos.',
  clientProofStarted: `${proof}acaba de empezar.`,
  clientProofQuarter: `${proof}lleva aproximadamente una cuarta parte.`,
  clientProofHalf: `${proof}lleva aproximadamente la mitad.`,
  clientProofThreeQuarters: `${proof}lleva aproximadamente tres cuartas partes.`,
  clientProofNearly: `${proof}ya casi ha terminado.`,
  clientProofDone: 'Comprobación completada. Ya participa en el sorteo.',
};
