(()=>{
var S=+"{{retryAfterSeconds}}"||30,J=+"{{jitterSeconds}}"||0,H=document.documentElement,L=H.lang,T=JSON.parse(H.dataset.t),P,D,K,E,$=i=>document.getElementById(i),t=(i,x)=>{$(i).textContent=x},say=(k,x)=>t("status",T[k].replace("{time}",x)),R=()=>Math.random()*J,q=T.clientNextCheck.split("{time}");
function u(n,k){return new Intl.NumberFormat(L,{style:"unit",unit:k,unitDisplay:"long"}).format(n)}
function secs(s){try{var m=Math.floor(s/60);return(m?u(m,"minute")+" ":"")+u(s%60,"second")}catch(e){return s+" s"}}
function live(w,x){var m=w.message;if(typeof m=="string"){t("msg",m);$("msgbox").hidden=!m}if($("place")&&x.placeAhead!=null)t("place",x.placeAhead);if($("turn")&&x.turnIn!=null)t("turn",x.turnIn)}
function est(w,x){if(!$("wt")||w.waitTime75PercentileSeconds==null||x.waitSummary==null)return;t("wt",x.waitSummary);t("w25",x.wait25||"");t("w50",x.wait50||"");t("w75",x.wait75||"");$("wl").hidden=!x.wait25}
function wait(s){clearTimeout(K);D=Date.now()+s*1e3;tick()}
function tick(){var l=Math.ceil((D-Date.now())/1e3);if(l<=0)return check();t("count",secs(l));K=setTimeout(tick,(D-Date.now())%1e3||1e3)}
function pf(p){var a=window.wrProof;if(P=!!p)if(a)a.set(p);else{E||(E=document.createElement("script"),E.src="{{{solverUrl}}}",document.body.append(E));E.dataset.proof=JSON.stringify(p)}}
function check(){var a=window.wrProof;D=0;t("count",T.clientMoment);
Promise.resolve(P&&a?a.get():"none").then(h=>fetch(location.href,{headers:{Accept:"application/json","waiting-room-proof":h},cache:"no-store"})).then(r=>r.json().catch(()=>0).then(b=>{var w=b&&b.waitingRoom,n=parseInt(r.headers.get("Retry-After"),10);
if(w&&w.inWaitingRoom===true&&!/deny|prequeue/.test(w.status)){est(w,w.text||{});live(w,w.text||{});if("proof"in w)pf(w.proof);n=(n>0?n:w.retryAfterSeconds>0?w.retryAfterSeconds:S)+R();wait(n);say("clientNotYet",secs(Math.round(n)))}
else{say("clientTurn");location.reload()}}),()=>{say("clientUnreachable");wait(S+R())})}
document.addEventListener("visibilitychange",()=>{if(!document.hidden&&D&&Date.now()>=D){clearTimeout(K);check()}});
$("next").append(q[0],$("count"),q[1]||"");$("next").hidden=false;pf("{{proofCompact}}");wait(S+R())})();
