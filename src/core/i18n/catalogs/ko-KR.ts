// The built-in strings in Korean (South Korea): 합니다 throughout (requests as -해 주세요, as Korean
// sites write them), counters joined to their figures (약 8분, 약 1,200명). Keys and arguments: en-US.ts.
import type { LocaleInfo } from '../types.js';
import type { Catalog } from './en-US.js';

export const info: LocaleInfo = {
  tag: 'ko-KR',
  name: '한국어',
  dir: 'ltr',
  number: { decimal: '.', group: ',', minimumGroupingDigits: 1, digits: '0123456789' },
};

export const catalog: Catalog = {
  fromSite: '사이트 안내:',
  languageLabel: '언어',
  checkNow: '지금 확인',

  durationUnknown: '알 수 없음',
  durationUnderMinute: '1분 미만',
  durationMinutes: '{minutes, plural, other {약 #분}}',
  durationHours: '{hours, plural, other {약 #시간}}',
  durationRangeMinutes: '{to, plural, other {약 {from}~#분}}',
  durationRangeHours: '{to, plural, other {약 {from}~#시간}}',
  durationRange: '{from}~{to}',
  peopleNone: '없음',
  peopleExact: '{count, plural, other {#명}}',
  peopleAbout: '{count, plural, other {약 #명}}',
  dateUtc: '{year}년 {month} {day}일 {weekday} {time} UTC',
  weekdays: '일요일|월요일|화요일|수요일|목요일|금요일|토요일',
  months: '1월|2월|3월|4월|5월|6월|7월|8월|9월|10월|11월|12월',

  waitingTitleStart: '대기열에서 기다리고 있습니다',
  waitingTitleKeep: '아직 대기 중입니다',
  waitingIntroStartRandom:
    '현재 사이트 접속자가 매우 많습니다. 모든 분이 원활하게 이용하실 수 있도록, 대기 중인 모든 분 가운데 무작위로 몇 명씩 선정하여 입장을 안내해 드리고 있습니다.',
  waitingIntroStartFifo:
    '현재 사이트 접속자가 매우 많습니다. 모든 분이 원활하게 이용하실 수 있도록, 대기열에 들어오신 순서대로 몇 명씩 입장을 안내해 드리고 있습니다.',
  waitingIntroKeepRandom:
    '아직 차례가 되지 않았습니다. 현재 사이트 접속자가 매우 많아, 대기 중인 모든 분 가운데 무작위로 몇 명씩 선정하여 입장을 안내해 드리고 있습니다.',
  waitingIntroKeepFifo:
    '아직 차례가 되지 않았습니다. 현재 사이트 접속자가 매우 많아, 대기열에 들어오신 순서대로 몇 명씩 입장을 안내해 드리고 있습니다.',
  waitingIntroKeepPrequeue:
    '아직 차례가 되지 않았습니다. 판매가 시작될 때 고객님을 포함해 사전 대기열에 있던 모든 분께 무작위로 대기 순서가 배정되었습니다. 그 순서대로 몇 명씩 입장을 안내해 드리고 있습니다.',
  waitingKeepOpen:
    '이 페이지를 그대로 열어 두세요. 자동으로 확인하여 차례가 되면 사이트로 이동해 드립니다. 새로고침해도 유리해지지 않으며, 언제든지 대기를 그만두셔도 됩니다.',
  placeHeading: '나의 대기 순서',
  placeAhead: '내 앞 대기 인원: {people}',
  turnIn: '내 차례까지 예상 시간: {duration}',
  yourLane: '나의 대기열: {lane}',
  waitHeading: '예상 대기 시간',
  waitWithin: '대부분의 방문자가 {duration} 이내에 입장합니다',
  waitWithinMinute: '대부분의 방문자가 1분 이내에 입장합니다',
  waitPending: '아직 계산 중입니다. 확인되는 대로 이 페이지에 표시됩니다.',
  wait25: '방문자 4명 중 1명: {duration}',
  wait50: '절반: {duration}',
  wait75: '4명 중 3명: {duration}',
  noscriptWaiting:
    '자바스크립트가 꺼져 있어 이 페이지에서 자동으로 확인할 수 없습니다. 다음 기회는 {seconds, plural, other {약 #초 후}}입니다.',
  noscriptProof: '사이트가 이렇게 붐비는 동안에는 자바스크립트가 꺼져 있으면 입장 가능성이 낮아집니다.',
  notifyButton: '차례가 되면 알림 받기',

  prequeueTitle: '곧 판매가 시작됩니다',
  prequeueIntro:
    '사전 대기열에 들어와 있습니다. 판매가 시작되면 사전 대기열에 있는 모든 분께 무작위로 대기 순서가 배정됩니다.',
  prequeueStartLabel: '판매 시작:',
  prequeueNoJump:
    '일찍 접속하거나, 새로고침하거나, 탭을 여러 개 열어도 순서가 앞당겨지지 않습니다. 이 페이지를 열어 두시면 판매가 시작될 때 자동으로 다음 단계로 이동합니다.',
  prequeueNoscript:
    '자바스크립트가 꺼져 있어 이 페이지에서 자동으로 확인할 수 없습니다. 판매가 시작된 후 다시 방문하여 확인해 주세요.',

  denyTitle: '현재 입장이 중단되었습니다',
  denyBody: '지금은 사이트에서 새로운 방문자를 받지 않고 있습니다. 고객님 쪽에는 아무 문제가 없습니다.',
  closedTitle: '판매가 종료되었습니다',
  closedBody:
    '이 이벤트는 종료되어 더 이상 이곳을 통해 사이트에 입장할 수 없습니다. 고객님 쪽에는 아무 문제가 없습니다.',
  tryLater: '나중에 다시 시도해 주세요.',
  tryAgain: '다시 시도',
  denyAuto: '이 페이지를 열어 두시면 몇 분마다 다시 확인하고, 사이트 입장이 재개되면 자동으로 이동해 드립니다.',

  originDownTitle: '일시적으로 이용할 수 없음',
  originDownHeading: '사이트가 지금 응답하지 않습니다',
  originDownBody: '잠시 후 다시 시도해 주세요.',
  hammerTitle: '대기 중',
  hammerHeading: '아직 대기열에 있습니다',
  hammerBody:
    '{seconds, plural, other {이 페이지에 확인 요청이 너무 자주 들어왔습니다. 대기 순서는 그대로 유지되며, #초 후 자동으로 다시 확인합니다.}}',

  clientNextCheck: '{time} 후 다시 확인합니다',
  clientStartsIn: '{time} 후 시작됩니다',
  clientMoment: '잠시',
  clientNotYet: '아직 차례가 아닙니다. {time} 후 다시 확인합니다.',
  clientTurn: '차례가 되었습니다. 사이트를 불러오는 중입니다…',
  clientTurnTitle: '차례가 되었습니다!',
  clientTurnBody: '이 탭으로 돌아와 사이트로 이동하세요.',
  clientNotifyOn: '차례가 되면 알림으로 알려 드립니다.',
  clientUnreachable: '사이트에 연결할 수 없습니다. 잠시 후 다시 시도합니다.',
  clientStarted: '판매가 시작되었습니다. 불러오는 중입니다…',
  clientStillClosed: '아직 입장이 중단된 상태입니다. 몇 분 후 이 페이지에서 다시 확인합니다.',
  clientProofStarted:
    '자동 구매 프로그램(봇)을 막기 위해 브라우저에서 간단한 확인을 진행하고 있습니다. 방금 시작했습니다.',
  clientProofQuarter:
    '자동 구매 프로그램(봇)을 막기 위해 브라우저에서 간단한 확인을 진행하고 있습니다. 약 4분의 1이 완료되었습니다.',
  clientProofHalf:
    '자동 구매 프로그램(봇)을 막기 위해 브라우저에서 간단한 확인을 진행하고 있습니다. 절반 정도 완료되었습니다.',
  clientProofThreeQuarters:
    '자동 구매 프로그램(봇)을 막기 위해 브라우저에서 간단한 확인을 진행하고 있습니다. 약 4분의 3이 완료되었습니다.',
  clientProofNearly:
    '자동 구매 프로그램(봇)을 막기 위해 브라우저에서 간단한 확인을 진행하고 있습니다. 거의 완료되었습니다.',
  clientProofDone: '확인이 완료되었습니다. 추첨 대상에 포함되었습니다.',
};
