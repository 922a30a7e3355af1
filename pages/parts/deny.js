(function(){
// Slow on purpose: everyone turned away at once must not come back at once.
var V="{{#preview}}1{{/preview}}",T=JSON.parse(document.documentElement.dataset.t),S=Math.max(+"{{retryAfterSeconds}}"||0,300),J=Math.max(+"{{jitterSeconds}}"||0,60);
function $(i){return document.getElementById(i)}
function later(){setTimeout(check,(S+Math.random()*J)*1000)}
function go(){location.reload()}
function check(){fetch(location.href,{headers:{Accept:"application/json"},credentials:"same-origin",cache:"no-store"}).then(function(r){return r.json().then(function(b){var w=b&&b.waitingRoom;if(w&&w.status==="deny"){$("status").textContent=T.clientStillClosed;later()}else go()},go)},later)}
$("auto").hidden=false;if(!V)later()})();
