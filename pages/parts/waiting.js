{{! The clock is a dedicated worker's timer: Chromium wakes a tab hidden 5 min once a minute, not its workers (docs/how-it-works.md). }}
(()=>{
var S=+"{{retryAfterSeconds}}"||30,J=+"{{jitterSeconds}}"||0,V="{{#preview}}1{{/preview}}",H=document.documentElement,L=H.lang,T=JSON.parse(H.dataset.t),P,D,K,E,G,A,W,N=window.Notification,$=i=>document.getElementById(i),B=$("nb"),t=(i,x)=>{$(i).textContent=x},say=(k,x)=>t("status",T[k].replace("{time}",x)),R=()=>Math.random()*J,q=T.clientNextCheck.split("{time}");
function u(n,k){return new Intl.NumberFormat(L,{style:"unit",unit:k,unitDisplay:"long"}).format(n)}
function secs(s){try{var m=Math.floor(s/60);return(m?u(m,"minute")+" ":"")+u(s%60,"second")}catch(e){return s+" s"}}
function live(w,x){var m=w.message;if(typeof m=="string"){t("msg",m);$("msgbox").hidden=!m}if($("place")&&x.placeAhead!=null)t("place",x.placeAhead);if($("turn")&&x.turnIn!=null)t("turn",x.turnIn)}
function est(w,x){if(!$("wt")||w.waitTime75PercentileSeconds==null||x.waitSummary==null)return;t("wt",x.waitSummary);t("w25",x.wait25||"");t("w50",x.wait50||"");t("w75",x.wait75||"");$("wl").hidden=!x.wait25}
function wait(s){D=Date.now()+s*1e3;W&&W.postMessage(s*1e3);tick()}
function tick(){clearTimeout(K);if(!D)return;var l=Math.ceil((D-Date.now())/1e3);if(l<=0)return check();t("count",secs(l));K=setTimeout(tick,(D-Date.now())%1e3||1e3)}
function pf(p){var a=window.wrProof;if(P=!!p)if(a)a.set(p);else{E||(E=document.createElement("script"),E.src="{{{solverUrl}}}",document.body.append(E));E.dataset.proof=JSON.stringify(p)}}
function turn(){G=1;W&&W.terminate();$("next").hidden=!0;document.title=T.clientTurnTitle;t("status",T.clientTurnTitle+" "+T.clientTurnBody);
try{A=A||new AudioContext;A.resume();var o=A.createOscillator(),g=A.createGain(),c=A.currentTime;o.frequency.setValueAtTime(880,c+.2);g.gain.value=.3;g.gain.setTargetAtTime(0,c+.3,.1);o.connect(g).connect(A.destination);o.start(c);o.stop(c+.6)}catch(e){}
try{N.permission=="granted"&&(new N(T.clientTurnTitle,{body:T.clientTurnBody,tag:"wr",requireInteraction:!0}).onclick=function(){focus();this.close()})}catch(e){}}
function check(){var a=window.wrProof;D=0;if(V){say("clientNotYet",secs(S));return wait(S)}t("count",T.clientMoment);
Promise.resolve(P&&a?a.get():"none").then(h=>fetch(location.href,{headers:{Accept:"application/json","waiting-room-proof":h},cache:"no-store"})).then(r=>r.json().catch(()=>0).then(b=>{var w=b&&b.waitingRoom,n=parseInt(r.headers.get("Retry-After"),10);
if(w&&w.inWaitingRoom===true&&!/deny|prequeue/.test(w.status)){est(w,w.text||{});live(w,w.text||{});if("proof"in w)pf(w.proof);n=(n>0?n:w.retryAfterSeconds>0?w.retryAfterSeconds:S)+R();wait(n);say("clientNotYet",secs(Math.round(n)))}
else if(!w&&document.hidden)turn();else{say("clientTurn");location.reload()}}),()=>{say("clientUnreachable");wait(S+R())})}
document.addEventListener("visibilitychange",()=>{if(!document.hidden)G?(say("clientTurn"),location.reload()):D&&Date.now()>=D&&tick()});
try{W=new Worker("data:text/javascript,onmessage=e=>setTimeout(postMessage,e.data,0)");W.onmessage=tick}catch(e){}
$("next").append(q[0],$("count"),q[1]||"");$("next").hidden=false;pf("{{proofCompact}}");wait(S+R());
if(B&&N&&N.permission!="denied"&&!(navigator.userAgentData||{}).mobile){var O=B.parentNode,on=()=>{O.textContent=T.clientNotifyOn};O.hidden=!1;
N.permission=="granted"?on():B.onclick=()=>{try{A=new AudioContext;A.suspend()}catch(e){}Promise.resolve(N.requestPermission()).then(p=>p=="granted"?on():O.hidden=!0)}}})();
