(function(){
var S=+"{{retryAfterSeconds}}"||30,J=+"{{jitterSeconds}}"||0,V="{{#preview}}1{{/preview}}",H=document.documentElement,L=H.lang,T=JSON.parse(H.dataset.t),start=Date.now()+(+"{{startsInSeconds}}"||0)*1000,timer;
function $(i){return document.getElementById(i)}
function u(n,k){return new Intl.NumberFormat(L,{style:"unit",unit:k,unitDisplay:"long"}).format(n)}
function left(s){if(s<=0)return T.clientMoment;var h=Math.floor(s/3600),m=Math.floor(s%3600/60);try{return h?u(h,"hour")+" "+u(m,"minute"):(m?u(m,"minute")+" ":"")+u(s%60,"second")}catch(e){return s+" s"}}
function show(){var s=Math.ceil((start-Date.now())/1000);$("left").textContent=left(s);timer=setTimeout(show,1000)}
function wait(s){setTimeout(check,s*1000)}
function check(){fetch(location.href,{headers:{Accept:"application/json"},credentials:"same-origin",cache:"no-store"}).then(function(r){var ra=parseInt(r.headers.get("Retry-After"),10);return r.json().then(function(b){return[b,ra]},function(){return[null,ra]})}).then(function(x){var w=x[0]&&x[0].waitingRoom;
if(w&&w.status==="prequeue"){if(typeof w.message=="string"){$("msg").textContent=w.message;$("msgbox").hidden=w.message===""}if(w.startsInSeconds!=null)start=Date.now()+w.startsInSeconds*1000;wait((x[1]>0?x[1]:w.retryAfterSeconds>0?w.retryAfterSeconds:S)+Math.random()*J)}
else{$("status").textContent=T.clientStarted;location.reload()}},function(){wait(S+Math.random()*J)})}
try{$("at").textContent=new Date("{{eventStartIso}}").toLocaleString(L,{weekday:"long",day:"numeric",month:"long",hour:"2-digit",minute:"2-digit",timeZoneName:"short"})}catch(e){}
var q=T.clientStartsIn.split("{time}"),f=$("left");f.textContent="";$("next").append(q[0],f,q[1]||"");show();if(!V)wait(S+Math.random()*J)})();
